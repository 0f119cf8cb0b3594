/** The self-info query's key, apart from its query options: the sign-in page sets it without loading the query library (decision 0044). */
export const selfInfoQueryKey = ['self-info'] as const;
