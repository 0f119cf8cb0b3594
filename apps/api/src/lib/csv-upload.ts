import type { FastifyRequest } from 'fastify';
import { AppError } from './app-error';

/** An uploaded CSV: the `file` part, read whole, and the plain fields the route asked for. */
export interface CsvUpload {
  buffer: Buffer;
  name: string;
  fields: Record<string, string>;
}

const tooManyFiles = () =>
  new AppError('TOO_MANY_FILES', { metadata: { file: 'v.too_many_files' } });
const fileRequired = () => new AppError('BODY_INVALID', { metadata: { file: 'v.file_required' } });

/**
 * Reads a multipart body holding one `file` part (capped by the route's multipart limits at
 * `maxBytes`) and the plain fields named in `fieldNames`, in any order; other fields are ignored.
 * Every part is read, so a second file is refused (TOO_MANY_FILES), not silently dropped.
 */
export async function readCsvUpload(
  request: FastifyRequest,
  { maxBytes, fieldNames = [] }: { maxBytes: number; fieldNames?: readonly string[] },
): Promise<CsvUpload> {
  try {
    let upload: { buffer: Buffer; name: string } | undefined;
    const fields: Record<string, string> = {};
    for await (const part of request.parts()) {
      if (part.type !== 'file') {
        if (fieldNames.includes(part.fieldname)) fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file') throw fileRequired();
      if (upload) throw tooManyFiles();
      upload = { buffer: await part.toBuffer(), name: part.filename };
    }
    if (!upload) throw fileRequired();
    return { ...upload, fields };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_FILES_LIMIT') throw tooManyFiles();
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError('FILE_TOO_LARGE', {
        message: `The file is larger than ${maxBytes / (1024 * 1024)} MB; split it into smaller files.`,
        cause: error,
      });
    }
    throw error;
  }
}
