/** Permission codes checked by the server. Every route declares one of these or is public. */
export const Perm = {
  dashboardView: 'dashboard:analysis:view',
  apiDocs: 'system:api:docs',
} as const;
export type PermCode = (typeof Perm)[keyof typeof Perm] | (string & {});

/** A route that only needs a valid token (any logged-in user). */
export const AUTHENTICATED = 'authenticated' as const;
