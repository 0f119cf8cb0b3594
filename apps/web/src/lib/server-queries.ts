/**
 * The answers a page rendered by the server was drawn from (decision 0050): the API renders a
 * signed-in user's /dashboard with its figures (src/prerender.tsx `renderDashboard`) and puts
 * them beside the markup, in `<script type="application/json" id="server-queries">`. The app's
 * query cache starts with them, so that its first render is the page already on screen rather
 * than a skeleton, and nothing is asked for twice.
 */
export interface ServerQueries {
  /** Whose they are: a page of another user (another tab signed in since) is not used. */
  user_id: number;
  queries: { queryKey: readonly unknown[]; data: unknown }[];
}

export const SERVER_QUERIES_ID = 'server-queries';

let taken = false;

/**
 * The server's answers for the signed-in user `userId`, once: the script is removed as it is
 * read. None when the page came without them, or for someone else.
 */
export function takeServerQueries(userId: number | undefined): ServerQueries['queries'] {
  const script = document.getElementById(SERVER_QUERIES_ID);
  if (!script) return [];
  script.remove();
  try {
    const state = JSON.parse(script.textContent ?? '') as ServerQueries;
    const queries =
      userId !== undefined && state.user_id === userId && Array.isArray(state.queries)
        ? state.queries
        : [];
    taken = queries.length > 0;
    return queries;
  } catch {
    return [];
  }
}

/**
 * Whether the app's cache started with the server's answers (`takeServerQueries`): its first
 * render then draws the page the server drew, which main.tsx hydrates rather than replaces.
 */
export function hasTakenServerQueries(): boolean {
  return taken;
}
