/** A LIKE/ILIKE pattern that finds `text` anywhere, its wildcard characters taken literally. */
export const likePattern = (text: string): string => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
