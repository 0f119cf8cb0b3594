/**
 * What a person did to the pre-rendered sign-in page (login.*.html, decision 0037) before the app
 * replaced it: the text typed into its inputs and the input that had the focus. main.tsx hands
 * the page over just before its first render; the login form reads it once its own inputs are in
 * place (a layout effect), from the replaced inputs themselves: typing goes on into them while
 * the app renders in the background, up to the moment it commits.
 */
const inputs = new Map<string, HTMLInputElement>();
let focused: string | null = null;
let stopWatchingFocus = () => {};

export function keepPrerenderedInput(container: HTMLElement): void {
  for (const input of container.querySelectorAll('input')) {
    if (input.name) inputs.set(input.name, input);
  }
  const active = document.activeElement;
  if (active instanceof HTMLInputElement && inputs.get(active.name) === active)
    focused = active.name;
  const onFocus = (event: FocusEvent) => {
    const target = event.target;
    if (target instanceof HTMLInputElement && inputs.get(target.name) === target) {
      focused = target.name;
    }
  };
  container.addEventListener('focusin', onFocus);
  stopWatchingFocus = () => container.removeEventListener('focusin', onFocus);
}

/** The text typed into the pre-rendered input `name` ('' if none); forgotten once taken. */
export function takePrerenderedValue(name: string): string {
  const value = inputs.get(name)?.value ?? '';
  inputs.delete(name);
  return value;
}

/** The name of the pre-rendered input that had the focus last, if any; forgotten once taken. */
export function takePrerenderedFocus(): string | null {
  stopWatchingFocus();
  stopWatchingFocus = () => {};
  const name = focused;
  focused = null;
  return name;
}
