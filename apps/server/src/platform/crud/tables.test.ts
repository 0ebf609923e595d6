import { entityDeclarations } from '@isps/contract';
import { describe, expect, it } from 'vitest';
import { entityOfTable, entityTables, linkOf, tableOf } from './tables.ts';

describe('the tables behind the declared entities', () => {
  it('give every declared entity its table and every link field its link table, and nothing undeclared', () => {
    const missing: string[] = [];
    for (const entity of entityDeclarations) {
      if (!Object.hasOwn(entityTables, entity.name)) missing.push(entity.name);
      const links = Object.entries(entity.fields).flatMap(([name, field]) => (field.link ? [name] : []));
      for (const name of links) if (!entityTables[entity.name]?.links?.[name]) missing.push(`${entity.name}.${name}`);
      for (const name of Object.keys(entityTables[entity.name]?.links ?? {})) if (!links.includes(name)) missing.push(`${entity.name}.${name} (no such link field)`);
    }
    for (const name of Object.keys(entityTables)) if (!entityDeclarations.some((e) => e.name === name)) missing.push(`${name} (no such entity)`);
    expect(missing).toEqual([]);
  });

  it('know the table of every entity a field names (links, references, pickers)', () => {
    const named = entityDeclarations.flatMap((entity) =>
      Object.values(entity.fields).flatMap((field) => [field.link?.entity, field.references?.entity, field.widget.kind === 'entitySelect' || field.widget.kind === 'treeSelect' ? field.widget.entity : undefined]),
    );
    expect([...new Set(named)].filter((name): name is string => name !== undefined && !Object.hasOwn(entityTables, name))).toEqual([]);
  });

  it('are read by name, by declaration, and back from a data log table', () => {
    const user = entityDeclarations.find((e) => e.name === 'user')!;
    expect(tableOf(user)).toBe('sys_user');
    expect(tableOf('role')).toBe('sys_role');
    expect(linkOf(user, 'selectedroles')).toEqual({ table: 'sys_user_role', ownerColumn: 'user_id', targetColumn: 'role_id' });
    expect(entityOfTable('sys_position')).toBe('position');
    expect(entityOfTable('sys_nothing')).toBeUndefined();
    expect(() => tableOf('nothing')).toThrow();
    expect(() => linkOf(user, 'realname')).toThrow();
  });
});
