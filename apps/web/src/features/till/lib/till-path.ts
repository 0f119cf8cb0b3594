/** The till's own page (its entry, src/till-main.tsx): the server serves it for this path. */
export const TILL_PATH = '/till';
