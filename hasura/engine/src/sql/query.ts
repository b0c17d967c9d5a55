import type { RootPlan } from '../plan/root-plan.ts';

import { andSql, compileBoolExp } from './bool-exp.ts';
import { ident, stringLiteral, type SqlBuilder } from './builder.ts';
import { aggregateJson, jsonObject, listJson, singleRowJson } from './select.ts';

/** The SQL expression answering one query root field. */
export function rootFieldJson(root: RootPlan, b: SqlBuilder): string {
  switch (root.kind) {
    case 'typename':
      return stringLiteral(root.value);
    case 'select':
      return listJson(root.source.table.table, root.args, root.fields, b, (alias) =>
        compileBoolExp(root.source.permission, b, alias),
      );
    case 'select_aggregate':
      return aggregateJson(root.source.table.table, root.args, root.aggregate, b, (alias) =>
        andSql(compileBoolExp(root.source.permission, b, alias)),
      );
    case 'select_by_pk':
      return singleRowJson(
        root.source.table.table,
        root.where,
        root.source.permission,
        root.fields,
        b,
      );
    default:
      throw new Error(`${root.kind} is not a query field`);
  }
}

/** One statement answering every database root field of a query, as json text in `data`. */
export function compileQuery(roots: RootPlan[], b: SqlBuilder): string {
  return `SELECT ${jsonObject(roots.map((root) => [root.alias, rootFieldJson(root, b)]))}::text AS ${ident('data')}`;
}
