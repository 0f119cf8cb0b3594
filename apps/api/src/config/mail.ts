import { z } from 'zod';

/**
 * SMTP_URL (smtp:// or smtps://user:pass@host:port) and MAIL_FROM, for the invitation mails
 * (decision 0025). A file of its own beside index.ts while another change reworks that one: fold
 * these two keys into its schema on merge.
 */
export const mailConfigSchema = z.object({
  SMTP_URL: z
    .url()
    .refine((url) => /^smtps?:\/\//.test(url), 'SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Token Back Office <no-reply@localhost>'),
});
export type MailConfig = z.output<typeof mailConfigSchema>;

export function loadMailConfig(env: Record<string, string | undefined> = process.env): MailConfig {
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
