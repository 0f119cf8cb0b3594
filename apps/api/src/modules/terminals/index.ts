// The terminals module's door: what other modules, app.ts, plugins, seed, scripts and tests outside
// the module may import (decision 0075).
export { hashTerminalKey, terminalKeyFrom } from './terminal-keys';
export {
  createTerminalKeyGate,
  type PresentedTerminalKey,
  type TerminalKeyGate,
} from './terminal-sessions.service';
export type { TerminalKeyCheck } from './terminals.repository';
export { default as terminalsRoutes } from './terminals.routes';
export {
  createTerminal,
  createTerminalIn,
  rotateTerminalKey,
  setTerminalStatus,
} from './terminals.service';
