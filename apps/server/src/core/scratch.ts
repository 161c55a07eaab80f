/**
 * Files too large to hold in memory on the request thread (a world file on its way in or out):
 * each in a folder of its own under the system's temporary directory, removed when its work is
 * done. An upload of such a file goes straight to one (`registerFileUploads`): the request's body
 * is the file, never a buffer, and it is removed once the answer is sent, whatever the answer.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

export class ScratchFile {
  private constructor(
    readonly path: string,
    private readonly dir: string,
  ) {}

  static async make(prefix: string): Promise<ScratchFile> {
    const dir = await mkdtemp(join(tmpdir(), `md-${prefix}-`));
    return new ScratchFile(join(dir, 'file'), dir);
  }

  async size(): Promise<number> {
    return (await stat(this.path)).size;
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

const sizeOf = (bytes: number) =>
  bytes >= 2 ** 20 ? `${Math.floor(bytes / 2 ** 20)} MiB` : `${bytes} bytes`;
export const UPLOAD_TOO_LARGE = (maxBytes: number) =>
  `Request body is too large: at most ${sizeOf(maxBytes)}`;

/**
 * Writes a request's body to `path`, refusing it past `maxBytes` with a 413. The request is left
 * open (what is left of it is read and dropped), so the client reads the 413 rather than a reset.
 */
function writeBody(payload: IncomingMessage, path: string, maxBytes: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = createWriteStream(path);
    let seen = 0;
    let ended = false;
    const fail = (error: Error) => {
      if (ended) return;
      ended = true;
      payload.removeListener('data', count);
      payload.unpipe(out);
      payload.resume();
      out.destroy();
      reject(error);
    };
    // Before pipe's own listener: a chunk past the limit is never written.
    const count = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) fail(new AppError(413, UPLOAD_TOO_LARGE(maxBytes)));
    };
    payload.on('data', count);
    payload.once('error', fail);
    payload.once('close', () => {
      if (!payload.complete) fail(new Error('The upload was cut off before its end'));
    });
    out.once('error', fail);
    out.once('finish', () => {
      if (ended) return;
      ended = true;
      resolve();
    });
    payload.pipe(out);
  });
}

/** Bodies of these content types, in this scope, are written to a scratch file (the body), up to `maxBytes`. */
export function registerFileUploads(app: FastifyInstance, contentTypes: string[], maxBytes: number) {
  app.addContentTypeParser(contentTypes, async (request: FastifyRequest, payload: IncomingMessage) => {
    const declared = Number(request.headers['content-length']);
    if (declared > maxBytes) throw new AppError(413, UPLOAD_TOO_LARGE(maxBytes));
    const file = await ScratchFile.make('upload');
    try {
      await writeBody(payload, file.path, maxBytes);
    } catch (error) {
      await file.remove();
      throw error;
    }
    return file;
  });
  app.addHook('onResponse', async (request) => {
    if (request.body instanceof ScratchFile) await request.body.remove();
  });
}
