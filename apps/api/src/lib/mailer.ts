import nodemailer from 'nodemailer';
import { z } from 'zod';

/** One plain message. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail; absent when no SMTP server is configured (links are then handed over by hand). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP_URL (smtp:// or smtps://user:pass@host:port) and MAIL_FROM. Kept here, beside the mailer,
 * rather than in config/index.ts while another change reworks that file: start.ts passes the
 * environment it hands loadConfig (decision 0025 says to fold them into the config on merge).
 */
export const mailConfigSchema = z.object({
  SMTP_URL: z
    .url()
    .refine((url) => /^smtps?:\/\//.test(url), 'SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Token Back Office <no-reply@localhost>'),
});
export type MailConfig = z.output<typeof mailConfigSchema>;

export function loadMailConfig(env: Record<string, string | undefined>): MailConfig {
  const parsed = mailConfigSchema.safeParse({
    SMTP_URL: env.SMTP_URL || undefined,
    MAIL_FROM: env.MAIL_FROM || undefined,
  });
  if (!parsed.success) {
    throw new Error(
      `Invalid mail configuration: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}

/** A nodemailer SMTP transport, or undefined when SMTP_URL is not set. */
export function createMailer(config: MailConfig): Mailer | undefined {
  if (!config.SMTP_URL) return undefined;
  const transport = nodemailer.createTransport(config.SMTP_URL);
  return {
    async send(message) {
      await transport.sendMail({ from: config.MAIL_FROM, ...message });
    },
    close: () => transport.close(),
  };
}
