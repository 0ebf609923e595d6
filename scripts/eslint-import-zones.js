/**
 * ESLint rule `zones/no-restricted-paths`: a file inside a zone's `target` folder may not import from its `from`
 * folders (relative imports, resolved against the importing file). Written here because eslint-plugin-import-x
 * depends on native resolver bindings that the package registry used by CI does not carry for every platform,
 * which breaks `npm ci`.
 */
import { dirname, relative, resolve, sep } from 'node:path';

const root = dirname(dirname(new URL(import.meta.url).pathname));

/** 'apps/web/src/shared' style folder path, relative to the repository root, always with '/' separators. */
const normalise = (path) => relative(root, resolve(root, path)).split(sep).join('/');
const inside = (file, folder) => file === folder || file.startsWith(`${folder}/`);

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'keep the dependency graph between folders one-way' },
    schema: [
      {
        type: 'object',
        properties: {
          zones: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                target: { type: 'string' },
                from: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
                except: { type: 'array', items: { type: 'string' } },
                message: { type: 'string' },
              },
              required: ['target', 'from'],
              additionalProperties: false,
            },
          },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const zones = (context.options[0]?.zones ?? []).map((zone) => {
      const from = (Array.isArray(zone.from) ? zone.from : [zone.from]).map(normalise);
      return {
        target: normalise(zone.target),
        from,
        except: (zone.except ?? []).flatMap((e) => from.map((f) => normalise(`${f}/${e}`))),
        message: zone.message ?? 'this import crosses a restricted zone',
      };
    });
    const file = normalise(context.filename);
    const applicable = zones.filter((zone) => inside(file, zone.target));
    if (applicable.length === 0) return {};

    function check(node, source) {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const imported = normalise(resolve(dirname(resolve(root, file)), source));
      for (const zone of applicable) {
        if (zone.from.some((f) => inside(imported, f)) && !zone.except.some((e) => inside(imported, e))) {
          context.report({ node, message: `Unexpected path "${source}" imported in restricted zone. ${zone.message}` });
        }
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

export default { rules: { 'no-restricted-paths': rule } };
