// Vitest's jsdom environment, but with Node's own AbortController and AbortSignal: Node 24's fetch
// (undici, which msw intercepts) refuses any other AbortSignal ("Expected signal to be an instance
// of AbortSignal", vitest-dev/vitest#8374), so every request the app makes with a TanStack Query
// signal would fail before reaching the stubbed network.
import { runInContext } from 'node:vm';
import { builtinEnvironments, type Environment } from 'vitest/environments';

// Captured when the worker loads this module, before jsdom puts its own on the global object.
const NODE_GLOBALS = {
  AbortController: globalThis.AbortController,
  AbortSignal: globalThis.AbortSignal,
  // A jsdom FormData (or a jsdom File in it) is sent by Node's fetch as text, and an abort
  // rejects with Node's DOMException.
  FormData: globalThis.FormData,
  Blob: globalThis.Blob,
  File: globalThis.File,
  DOMException: globalThis.DOMException,
  Headers: globalThis.Headers,
};

const jsdom = builtinEnvironments.jsdom;

function putNodeGlobals(global: Record<string, unknown>) {
  const JsdomBlob = global.Blob as typeof Blob;
  const reader = (global.FileReader as typeof FileReader).prototype;
  Object.assign(global, NODE_GLOBALS);
  // jsdom's FileReader (user-event's clipboard reads with it) takes only jsdom's Blob: hand it
  // a copy of a Node Blob.
  for (const method of ['readAsText', 'readAsArrayBuffer', 'readAsDataURL'] as const) {
    const read = reader[method] as (this: FileReader, blob: Blob, encoding?: string) => void;
    reader[method] = function (this: FileReader, blob: Blob, encoding?: string) {
      if (!(blob instanceof NODE_GLOBALS.Blob)) return read.call(this, blob, encoding);
      void blob.arrayBuffer().then((bytes) => {
        read.call(this, new JsdomBlob([bytes], { type: blob.type }), encoding);
      });
    };
  }
}

export default {
  ...jsdom,
  name: 'jsdom-node-abort',
  async setup(global, options) {
    const environment = await jsdom.setup(global, options);
    putNodeGlobals(global);
    return environment;
  },
  async setupVM(options) {
    const environment = await jsdom.setupVM!(options);
    const global = runInContext('this', environment.getVmContext()) as Record<string, unknown>;
    // What `setup` above has as well: Node's globals that jsdom does not replace (streams, ...).
    for (const name of Object.getOwnPropertyNames(globalThis)) {
      if (!(name in global)) {
        Object.defineProperty(global, name, Object.getOwnPropertyDescriptor(globalThis, name)!);
      }
    }
    putNodeGlobals(global);
    return environment;
  },
} satisfies Environment;
