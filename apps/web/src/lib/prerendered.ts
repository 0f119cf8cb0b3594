/**
 * What a person did to the sign-in page pre-rendered at build (login.*.html, decision 0033) before the
 * app replaced it: the text typed into its inputs and the input that had the focus. main.tsx
 * keeps them just before its first render; the login form takes them, once.
 */
const values = new Map<string, string>();
let focused: string | null = null;

export function keepPrerenderedInput(container: HTMLElement): void {
  for (const input of container.querySelectorAll('input')) {
    if (input.name && input.value) values.set(input.name, input.value);
  }
  const active = document.activeElement;
  if (active instanceof HTMLInputElement && container.contains(active)) focused = active.name;
}

/** The text typed into the pre-rendered input `name` ('' if none); forgotten once taken. */
export function takePrerenderedValue(name: string): string {
  const value = values.get(name) ?? '';
  values.delete(name);
  return value;
}

/** The name of the pre-rendered input that had the focus, if any; forgotten once taken. */
export function takePrerenderedFocus(): string | null {
  const name = focused;
  focused = null;
  return name;
}
