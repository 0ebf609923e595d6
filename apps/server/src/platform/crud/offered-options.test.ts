import { field, type EntityDeclaration } from '@isps/contract';
import { describe, expect, it } from 'vitest';
import { AppError } from '../envelope.ts';
import { checkOfferedValues, offerValues } from './offered-options.ts';

const shelf: EntityDeclaration = {
  name: 'shelf',
  title: 'shelf.title',
  basePath: '/test/shelf',
  permissionPrefix: 'test:shelf',
  component: 'test/shelf',
  labelField: 'name',
  fields: { name: field.text('shelf.field.name', 50), colour: { ...field.text('shelf.field.colour', 20), optionsFrom: '/test/shelf/colours' } },
  columns: ['name', 'colour'],
  search: {},
  sortable: [],
  defaultSort: { field: 'name', order: 'asc' },
};

describe('values a field takes from what the server offers', () => {
  it('accepts an offered value or none, and refuses any other', () => {
    const colours = offerValues('/test/shelf/colours', [{ value: 'red' }, { value: 'blue' }]);
    expect(colours.map((c) => c.value)).toEqual(['red', 'blue']);
    expect(() => checkOfferedValues(shelf, 'en-US', { name: 'A', colour: 'red' })).not.toThrow();
    expect(() => checkOfferedValues(shelf, 'en-US', { name: 'A' })).not.toThrow();
    expect(() => checkOfferedValues(shelf, 'en-US', { colour: '' })).not.toThrow();
    expect(() => checkOfferedValues(shelf, 'en-US', { colour: 'green' })).toThrow(AppError);
  });

  it('refuses every value of a path nothing offers', () => {
    const orphan = { ...shelf, fields: { colour: { ...field.text('shelf.field.colour', 20), optionsFrom: '/test/nowhere' } } };
    expect(() => checkOfferedValues(orphan, 'en-US', { colour: 'red' })).toThrow(AppError);
  });
});
