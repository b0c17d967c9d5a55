import { setTimeout as sleep } from 'node:timers/promises';

import { show, subsetMismatch } from './compare.ts';
import type { WsScenariosCase, WsStep, WsStepsCase } from './corpus.ts';
import type { ServerSettings } from './engine.ts';
import { mintJwt } from './jwt.ts';
import { resolvePlaceholders, type PlaceholderState, type PlaceholderValues } from './transform.ts';
import { type WsConnection, connectionInitPayload, type WsProtocol } from './ws-client.ts';
import {
  MESSAGE_TIMEOUT_MS,
  describeError,
  initialise,
  newOutcome,
  openSocket,
  type CaseContext,
  type CaseOutcome,
} from './driver-context.ts';

/*
 * The WebSocket drivers: scenarios (a script of messages, per protocol, when the server's
 * settings allow it) and steps cases.
 */

// ---------------------------------------------------------------------------------------------
// Websocket steps and scenarios.

interface StepsResult {
  failure: string | null;
  /** Whether the socket ended the steps initialised (connection_ack seen). */
  acknowledged: boolean;
}

async function runWsSteps(
  context: CaseContext,
  connection: WsConnection,
  steps: WsStep[],
  values: PlaceholderValues,
  state: PlaceholderState,
): Promise<StepsResult> {
  let acknowledged = false;
  for (const [index, step] of steps.entries()) {
    const where = `step ${index + 1}`;
    try {
      if (step.send) {
        connection.send(resolvePlaceholders(step.send, values, state));
      } else if (step.expect) {
        const expected = resolvePlaceholders(step.expect, values, state);
        const message = await connection.take(
          () => true,
          MESSAGE_TIMEOUT_MS,
          `a ${show(expected['type'])} message`,
        );
        const mismatch = subsetMismatch(expected, message);
        if (mismatch) return { failure: `${where}: ${mismatch}`, acknowledged };
        if (message['type'] === 'connection_ack') acknowledged = true;
      } else if (step.expect_connection_closed) {
        const closed = await connection.waitClosed(MESSAGE_TIMEOUT_MS);
        if (step.close_code !== undefined && closed.code !== step.close_code) {
          return {
            failure: `${where}: closed with code ${closed.code}${closed.reason ? ` (${closed.reason})` : ''}, expected ${step.close_code}`,
            acknowledged,
          };
        }
      } else if (step.expect_no_message_within_seconds !== undefined) {
        const arrived = await connection.quietFor(step.expect_no_message_within_seconds * 1000);
        if (arrived.length > 0) {
          return {
            failure: `${where}: expected no message within ${step.expect_no_message_within_seconds} s, got ${show(arrived[0], 160)}`,
            acknowledged,
          };
        }
      } else if (step.wait_seconds !== undefined) {
        await sleep(step.wait_seconds * 1000, undefined, { signal: context.signal });
      }
    } catch (error) {
      return { failure: `${where}: ${describeError(error)}`, acknowledged };
    }
  }
  return { failure: null, acknowledged };
}

function adminInitPayload(context: CaseContext): Record<string, unknown> {
  const secret = context.settings.adminSecret;
  return connectionInitPayload(secret ? { 'X-Hasura-Admin-Secret': secret } : {});
}

/** `requires:` of a scenario, e.g. "admin secret configured, no unauthorized role". */
export function scenarioApplies(requires: string | undefined, settings: ServerSettings): boolean {
  if (!requires) return true;
  const text = requires.toLowerCase();
  if (text.includes('admin secret configured') && !settings.adminSecret) return false;
  if (text.includes('no unauthorized role') && settings.unauthorizedRole) return false;
  return true;
}

function protocolsFor(subprotocol: string | undefined, fallback: WsProtocol[]): WsProtocol[] {
  if (subprotocol === 'graphql-ws' || subprotocol === 'graphql-transport-ws') return [subprotocol];
  return fallback;
}

/**
 * Scenarios run in order on one socket per protocol, as pytest's class-scoped client does.
 * A scenario that begins with connection_init gets a new socket; any other reuses the open,
 * acknowledged socket, or opens one and initialises it as admin. After a failure, or a
 * connection_terminate, the next scenario starts on a new socket.
 */
export async function runScenarios(
  context: CaseContext,
  spec: WsScenariosCase,
): Promise<CaseOutcome> {
  const outcome = newOutcome();
  for (const protocol of protocolsFor(spec.subprotocol, context.wsProtocols)) {
    await context.prepare();
    let connection: WsConnection | undefined;
    let acknowledged = false;
    const state: PlaceholderState = {};
    for (const scenario of spec.scenarios) {
      const label = `[${protocol}] ${scenario.name}`;
      if (!scenarioApplies(scenario.requires, context.settings)) {
        outcome.notes.push(`${label}: not applicable here (requires ${scenario.requires})`);
        continue;
      }
      const first = scenario.steps[0];
      const startsWithInit = first?.send?.['type'] === 'connection_init';
      try {
        if (startsWithInit || !connection?.isOpen || !acknowledged) {
          connection?.close();
          connection = await openSocket(context, protocol);
          acknowledged = false;
          if (!startsWithInit) {
            const refused = await initialise(connection, adminInitPayload(context));
            if (refused) throw new Error(refused);
            acknowledged = true;
          }
        }
        const result = await runWsSteps(
          context,
          connection,
          scenario.steps,
          context.placeholders,
          state,
        );
        acknowledged ||= result.acknowledged;
        const terminated = scenario.steps.some(
          (step) => step.send?.['type'] === 'connection_terminate',
        );
        if (result.failure) outcome.failures.push(`${label}: ${result.failure}`);
        if (result.failure || terminated) {
          connection.close();
          connection = undefined;
        }
      } catch (error) {
        outcome.failures.push(`${label}: ${describeError(error)}`);
        connection?.close();
        connection = undefined;
      }
      if (context.signal.aborted) return outcome;
    }
    connection?.close();
  }
  return outcome;
}

/** A step list on one fresh socket per protocol (the auth_jwt websocket-expiry case). */
export async function runStepsCase(context: CaseContext, spec: WsStepsCase): Promise<CaseOutcome> {
  const outcome = newOutcome();
  for (const protocol of protocolsFor(spec.subprotocol, context.wsProtocols)) {
    await context.prepare();
    const values: PlaceholderValues = {
      ...context.placeholders,
      ...(spec.jwt ? { token: mintJwt(spec.jwt, context.jwtKeys) } : {}),
    };
    try {
      const connection = await openSocket(context, protocol);
      const result = await runWsSteps(context, connection, spec.steps, values, {});
      if (result.failure) outcome.failures.push(`[${protocol}] ${result.failure}`);
      connection.close();
    } catch (error) {
      outcome.failures.push(`[${protocol}] ${describeError(error)}`);
    }
  }
  return outcome;
}
