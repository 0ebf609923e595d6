import { sql } from 'kysely';

/** Text matched literally inside a LIKE pattern, with '!' as the escape character (the same on all three engines). */
export const escapeLike = (text: string): string => text.replace(/[!%_]/g, (c) => `!${c}`);

/** `column LIKE pattern ESCAPE '!'` for a pattern built with `escapeLike`. */
export const likeEscaped = (column: string, pattern: string) => sql<boolean>`${sql.ref(column)} like ${pattern} escape '!'`;
