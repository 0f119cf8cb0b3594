import nodemailer from 'nodemailer';
import type { Config } from '../config';

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

/** A nodemailer SMTP transport, or undefined when SMTP_URL is not set. */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>): Mailer | undefined {
  if (!config.SMTP_URL) return undefined;
  const transport = nodemailer.createTransport(config.SMTP_URL);
  return {
    async send(message) {
      await transport.sendMail({ from: config.MAIL_FROM, ...message });
    },
    close: () => transport.close(),
  };
}
