import nodemailer from 'nodemailer';
import type { Logger } from '../log.js';

export interface Mailer {
  /** Mails the link, or (without SMTP) writes it to the log: says which, so the reply tells the truth. */
  sendVerification(to: string, link: string): Promise<'mailed' | 'logged'>;
  close(): void;
}

/**
 * Verification mail through real SMTP (nodemailer). Without `SMTP_URL` the link is
 * written to the log, so a local user can still verify.
 */
export function createMailer(opts: { smtpUrl?: string; from: string; log: Logger }): Mailer {
  if (!opts.smtpUrl) {
    return {
      async sendVerification(to, link) {
        opts.log.warn({ to, link }, 'SMTP_URL is not set; open this link to verify the key');
        return 'logged';
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(opts.smtpUrl);
  return {
    async sendVerification(to, link) {
      await transport.sendMail({
        from: opts.from,
        to,
        subject: 'Verify your API key',
        text: `Open this link within 24 hours to activate your API key:\n\n${link}\n\nIf you did not ask for a key, ignore this mail.`,
        html: `<p>Open this link within 24 hours to activate your API key:</p><p><a href="${link}">${link}</a></p><p>If you did not ask for a key, ignore this mail.</p>`,
      });
      return 'mailed';
    },
    close: () => transport.close(),
  };
}
