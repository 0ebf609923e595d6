import { entityDeclarations, type EntityDeclaration } from '@isps/contract';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { DECLARED_SCREENS } from './declared-screen-list.ts';
import { hasPage, pageModuleKey } from './page-registry';
import { MenuPage } from './tabs/page-host.tsx';

// The generic CRUD screen, replaced by a marker naming the declaration it is given
vi.mock('../shared/crud/crud-screen.tsx', async (original) => ({
  ...(await original<typeof import('../shared/crud/crud-screen.tsx')>()),
  CrudScreen: ({ entity }: { entity: EntityDeclaration }) => <p>{`generic screen of ${entity.name}`}</p>,
}));

// the same page modules the registry serves menu components from
const pageModules = import.meta.glob(['../features/*/pages/*.tsx', '!../features/*/pages/*.test.tsx']);

/**
 * Acceptance 7 of issue 4: a simple screen is one declaration and its translations. Screens whose menu component has
 * no page module of its own are drawn by the generic CRUD screen from their declaration (with extensions beside it).
 */
describe('screens that are only a declaration', () => {
  const declaredOnly = entityDeclarations.filter((entity) => !(pageModuleKey(entity.component) in pageModules));

  it('are at least ten', () => {
    expect(Object.keys(pageModules).length).toBeGreaterThan(0);
    expect(declaredOnly.length).toBeGreaterThanOrEqual(10);
  });

  it.each(declaredOnly.map((entity) => [entity.name, entity] as const))('%s: its menu component opens the generic CRUD screen', async (_name, entity) => {
    expect(hasPage(entity.component)).toBe(true);
    render(<MenuPage component={entity.component} />);
    expect(await screen.findByText(`generic screen of ${entity.name}`, {}, { timeout: 10_000 })).toBeTruthy();
  });
});

// The frame knows the declared screens by this list, without loading the declarations (their zod and pattern engine).
describe('the list of declared screens', () => {
  it('names every declaration by its menu component, and nothing else', () => {
    expect(DECLARED_SCREENS).toEqual(Object.fromEntries(entityDeclarations.map((entity) => [entity.component, entity.name])));
  });
});
