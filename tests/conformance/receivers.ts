import type http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

import { listenLocal, postJson, readBody } from './http.ts';
import { isObject } from './corpus.ts';

/*
 * The two webhook services of the pytest environment:
 *
 * - the event receiver (EVENT_WEBHOOK_HANDLER, port 5592; context.py EvtsWebhookHandler):
 *   POST /fail -> 500, /sleep_2s -> 204 after 2 s, anything else -> 204; every call is
 *   recorded (path, headers, JSON body) when its answer goes out;
 * - the action handler (ACTION_WEBHOOK_HANDLER, port 5593; context.py ActionsWebhookHandler)
 *   exactly as actions_sync/handlers.yaml specifies it.
 */

export interface EventDelivery {
  path: string;
  headers: Record<string, string>;
  body: unknown;
  receivedAt: number;
}

export interface Listening {
  port: number;
  close(): Promise<void>;
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

function pathOf(request: http.IncomingMessage): string {
  return (request.url ?? '/').split('?')[0] ?? '/';
}

export class EventReceiver {
  readonly deliveries: EventDelivery[] = [];
  private listening: Listening | undefined;
  private waiters = new Set<() => void>();

  get port(): number | undefined {
    return this.listening?.port;
  }

  async start(port: number): Promise<number> {
    this.listening = await listenLocal((request, response) => {
      void this.handle(request, response);
    }, port);
    return this.listening.port;
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse) {
    const text = await readBody(request).catch(() => '');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const path = pathOf(request);
    if (path === '/sleep_2s') await sleep(2_000);
    const status = path === '/fail' ? 500 : 204;
    response.writeHead(status);
    response.end();
    this.deliveries.push({
      path,
      headers: flatHeaders(request.headers),
      body,
      receivedAt: Date.now(),
    });
    for (const wake of this.waiters) wake();
  }

  clear(): void {
    this.deliveries.length = 0;
  }

  /** Resolves once more than `count` deliveries are recorded, or false after `timeoutMs`. */
  waitForCount(count: number, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.deliveries.length > count) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (value: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      };
      const check = () => {
        if (this.deliveries.length > count) finish(true);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.waiters.add(check);
      signal?.addEventListener('abort', onAbort);
    });
  }

  async stop(): Promise<void> {
    await this.listening?.close();
    this.listening = undefined;
  }
}

const EMAIL_REGEX = /^\w+([.-]?\w+)*@\w+([.-]?\w+)*(\.\w{2,3})+$/;

interface HandlerReply {
  status: number;
  body?: unknown;
}

/**
 * Writes exactly `Content-Type: application/json` and `Set-Cookie: abcd` (handlers.yaml) and
 * nothing else: no Date, Connection, Content-Length or Transfer-Encoding; the body ends with
 * the connection, as with pytest's HTTP/1.0 handler. (Hasura echoes the handler's response
 * headers into `extensions.internal` of action errors.)
 */
function writeReply(response: http.ServerResponse, reply: HandlerReply): void {
  response.removeHeader('Date');
  response.removeHeader('Connection');
  response.removeHeader('Content-Length');
  response.removeHeader('Transfer-Encoding');
  response.statusCode = reply.status;
  if (reply.status === 204) {
    response.end();
    return;
  }
  response.setHeader('Content-Type', 'application/json');
  response.setHeader('Set-Cookie', 'abcd');
  response.end(JSON.stringify(reply.body ?? null));
}

export class ActionHandler {
  /** Where handlers that use GraphQL send it (the engine under test). */
  engineUrl: string | undefined;
  adminSecret: string | undefined;
  private listening: Listening | undefined;

  get port(): number | undefined {
    return this.listening?.port;
  }

  async start(port: number): Promise<number> {
    this.listening = await listenLocal((request, response) => {
      void this.handle(request, response);
    }, port);
    return this.listening.port;
  }

  async stop(): Promise<void> {
    await this.listening?.close();
    this.listening = undefined;
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse) {
    let reply: HandlerReply;
    try {
      const text = await readBody(request);
      const payload: unknown = text ? JSON.parse(text) : {};
      reply = await this.route(pathOf(request), payload, request.headers);
    } catch (error) {
      reply = {
        status: 500,
        body: { message: `action handler failed: ${(error as Error).message}` },
      };
    }
    writeReply(response, reply);
  }

  private async graphql(query: string, variables: Record<string, unknown>): Promise<unknown> {
    if (!this.engineUrl) throw new Error('no engine to call');
    const headers: Record<string, string> = {};
    if (this.adminSecret) headers['X-Hasura-Admin-Secret'] = this.adminSecret;
    const response = await postJson(`${this.engineUrl}/v1/graphql`, { query, variables }, headers);
    return response.json;
  }

  private async usersByEmail(email: string): Promise<unknown[] | undefined> {
    const result = await this.graphql(
      'query get_user($email:String!) { user(where:{email:{_eq:$email}},order_by: {id: asc}) { id } }',
      { email },
    );
    if (!isObject(result) || !isObject(result['data']) || !Array.isArray(result['data']['user'])) {
      return undefined;
    }
    return result['data']['user'] as unknown[];
  }

  /** handlers.yaml, route by route. */
  async route(
    path: string,
    payload: unknown,
    headers: http.IncomingHttpHeaders,
  ): Promise<HandlerReply> {
    const input = isObject(payload) && isObject(payload['input']) ? payload['input'] : {};
    const invalidEmail = { message: 'Given email address is not valid', code: 'invalid-email' };
    const graphqlFailed = { message: 'GraphQL query execution failed', code: 'unexpected' };
    const nested = (user: unknown) => ({
      ...(isObject(user) ? user : {}),
      address: { city: 'New York', country: 'USA' },
      addresses: [
        { city: 'Bangalore', country: 'India' },
        { city: 'Melbourne', country: 'Australia' },
      ],
      user_id: { id: isObject(user) ? user['id'] : null },
    });
    if (path === '/create-user-timeout') {
      await sleep(3_000);
      return this.route('/create-user', payload, headers);
    }
    switch (path) {
      case '/create-user': {
        const email = String(input['email']);
        if (!EMAIL_REGEX.test(email)) return { status: 400, body: invalidEmail };
        const result = await this.graphql(
          'mutation ($email: String! $name: String!) { insert_user_one(object: {email: $email, name: $name}) { id } }',
          { email, name: input['name'] },
        );
        if (!isObject(result) || !isObject(result['data']) || 'errors' in result) {
          return { status: 400, body: graphqlFailed };
        }
        return { status: 200, body: result['data']['insert_user_one'] };
      }
      case '/create-users': {
        const users = Array.isArray(input['users']) ? (input['users'] as unknown[]) : [];
        for (const user of users) {
          const email = isObject(user) ? String(user['email']) : '';
          if (!EMAIL_REGEX.test(email)) {
            return {
              status: 400,
              body: { message: `Email address is not valid: ${email}`, code: 'invalid-email' },
            };
          }
        }
        const result = await this.graphql(
          'mutation ($insert_inputs: [user_insert_input!]!){ insert_user(objects: $insert_inputs) { returning { id } } }',
          { insert_inputs: users },
        );
        if (!isObject(result) || !isObject(result['data']) || 'errors' in result) {
          return { status: 400, body: graphqlFailed };
        }
        const inserted = result['data']['insert_user'];
        return { status: 200, body: isObject(inserted) ? inserted['returning'] : null };
      }
      case '/mirror-action':
        return { status: 200, body: input['arg'] };
      case '/mirror-headers':
        return {
          status: 200,
          body: {
            headers: Object.entries(flatHeaders(headers)).map(([name, value]) => ({ name, value })),
          },
        };
      case '/get-user-by-email':
      case '/get-user-by-email-nested':
      case '/get-users-by-email':
      case '/get-users-by-email-nested': {
        const email = String(input['email']);
        if (!EMAIL_REGEX.test(email)) return { status: 400, body: invalidEmail };
        const users = await this.usersByEmail(email);
        if (!users) return { status: 400, body: graphqlFailed };
        if (path === '/get-users-by-email') return { status: 200, body: users };
        if (path === '/get-users-by-email-nested') return { status: 200, body: users.map(nested) };
        if (users.length === 0)
          return { status: 500, body: { message: 'no user with that email' } };
        return { status: 200, body: path === '/get-user-by-email' ? users[0] : nested(users[0]) };
      }
      case '/intentional-error':
        return { status: 400, body: input['blob'] };
      case '/null-response':
        return { status: 200, body: null };
      case '/omitted-response-field':
        return { status: 200, body: { country: 'India' } };
      case '/scalar-response':
        return { status: 200, body: 'some-string' };
      case '/json-response':
        return { status: 200, body: { foo: 'bar' } };
      case '/custom-scalar-array-response':
        return { status: 200, body: [{ foo: 'bar' }] };
      case '/scalar-array-response':
        return { status: 200, body: ['foo', 'bar', null] };
      case '/recursive-output':
        return {
          status: 200,
          body: {
            direct: { id: 1, this: { id: 2, this: { id: 3 } } },
            list: { id: 1, these: [{ id: 2, these: [{ id: 3 }] }, { id: 4 }] },
            mutual: { id: 1, that: { id: 2, other: { id: 3, that: { id: 4 } } } },
          },
        };
      case '/get-results':
        return { status: 200, body: { result_ids: [1, 2, 3, 4] } };
      case '/typed-nested-null':
        return { status: 200, body: { id: 1, child: null } };
      case '/typed-nested-null-wrong-field':
        return { status: 200, body: { id: null, child: null } };
      default:
        return { status: 204 };
    }
  }
}
