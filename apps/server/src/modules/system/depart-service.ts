import type { FastifyInstance } from 'fastify';

/** Org codes grow by one level per tree level: roots A01, A02, …; children of A01 are A01A01, A01A02, … */
const LEVEL = /^[A-Z]\d{2}$/;

function nextCode(prefix: string, siblings: string[]): string {
  const used = siblings
    .filter((c) => c.startsWith(prefix) && c.length === prefix.length + 3 && LEVEL.test(c.slice(prefix.length)))
    .map((c) => c.slice(prefix.length));
  // A01 … A99, then B01 … Z99: 2574 siblings per level
  let letter = 0;
  let number = 1;
  for (const code of used.sort()) {
    const l = code.charCodeAt(0) - 65;
    const n = Number(code.slice(1));
    if (l > letter || (l === letter && n >= number)) {
      letter = l;
      number = n + 1;
      if (number > 99) {
        letter += 1;
        number = 1;
      }
    }
  }
  if (letter > 25) throw new Error('org code space of one level is used up');
  return `${prefix}${String.fromCharCode(65 + letter)}${String(number).padStart(2, '0')}`;
}

/** The org code of a new group below `parentId` (a root when null), after the highest code of its siblings. */
export async function nextOrgCode(app: FastifyInstance, parentId: string | null): Promise<string> {
  const parent = parentId ? await app.db.selectFrom('sys_depart').select('org_code').where('id', '=', parentId).executeTakeFirst() : undefined;
  const prefix = parent?.org_code ?? '';
  // deleted groups keep their codes (the column is unique), so they count as siblings too
  const siblings = await app.db
    .selectFrom('sys_depart')
    .select('org_code')
    .where((eb) => (parentId ? eb('parent_id', '=', parentId) : eb.or([eb('parent_id', 'is', null), eb('parent_id', '=', '')])))
    .execute();
  return nextCode(prefix, siblings.map((s) => s.org_code));
}
