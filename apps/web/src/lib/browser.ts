/** Browser side effects behind one seam, so tests can observe them. */
export const browser = {
  reload: (): void => window.location.reload(),
  /** Saves `blob` as a download named `filename`. */
  saveFile: (blob: Blob, filename: string): void => {
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    // Revoked on the next task: the click has started the download by then.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  },
  /** Puts `text` on the clipboard (needs a secure context: https or localhost). */
  copyText: (text: string): Promise<void> => navigator.clipboard.writeText(text),
};
