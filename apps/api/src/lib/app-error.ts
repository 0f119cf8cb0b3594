import { ERROR_CATALOGUE, type ErrorCode } from '@app/contract';

/** The one error type the API throws; the error handler renders it as the envelope of DESIGN 4. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly metadata: Record<string, string> | undefined;
  /** Structured facts about the refusal, sent as the envelope's `details` (not translated). */
  readonly details: Record<string, unknown> | undefined;
  /** Sent as the `Retry-After` header (seconds) of a 429 or 503. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ErrorCode,
    options: {
      message?: string;
      metadata?: Record<string, string>;
      details?: Record<string, unknown>;
      cause?: unknown;
      retryAfterSeconds?: number;
    } = {},
  ) {
    super(options.message ?? fillDetails(ERROR_CATALOGUE[code].en, options.details), {
      cause: options.cause,
    });
    this.name = 'AppError';
    this.statusCode = ERROR_CATALOGUE[code].status;
    this.metadata = options.metadata;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A catalogue message's `{{name}}` placeholders filled from the refusal's details (DESIGN 7). */
function fillDetails(message: string, details: Record<string, unknown> | undefined): string {
  if (!details) return message;
  return message.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    details[name] === undefined || details[name] === null ? whole : String(details[name]),
  );
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
