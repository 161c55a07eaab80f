/**
 * What every answer carries, whatever answered it: the request's id (the client's X-Request-Id
 * when it sent a usable one, else a new UUID), which the log lines and the QA journal name too, so
 * a client's failure can be found in the server's log; and JSON typed `application/json`, as the
 * OpenAPI document declares it (RFC 8259 registers no charset parameter: JSON is UTF-8).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
/** A client's id is taken when it is short visible ASCII: nothing a log line could be flooded or forged with. */
const CLIENT_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;
const JSON_WITH_CHARSET = 'application/json; charset=utf-8';
export const JSON_TYPE = 'application/json';

/** Fastify's genReqId: the id the request's logger, the journal and the answer carry. */
export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
}

export function registerAnswerHeaders(app: FastifyInstance) {
  // Callback hooks: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.getHeader('content-type') === JSON_WITH_CHARSET) reply.header('content-type', JSON_TYPE);
    done(null, payload);
  });
}
