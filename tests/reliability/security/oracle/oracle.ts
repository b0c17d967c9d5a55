import { poisonQuery } from './poison.ts';
import { withPrint } from './query.ts';

export { type FindingKind, FAILING, type Finding, OracleTally } from './oracle-findings.ts';
export { type Oracle, startOracle } from './oracle-engine.ts';
export { checkAnswer } from './oracle-answers.ts';
export { type HiddenRun, checkHiddenChanges } from './oracle-hidden.ts';

/*
 * The oracle's world for one database: the product stack (tests/reliability/hostile/
 * engine-stack.ts) with the oracle's rows, a reference engine per role (restricted.ts), each
 * role's schema as a model and a generator, and the checks of both properties, which count
 * what they did and keep every finding.
 */

export { poisonQuery, withPrint };
