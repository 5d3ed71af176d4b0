import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";

export interface Email {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(email: Email): Promise<void>;
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise each email is written to the log,
 * so a local user can still follow a magic link or an invitation.
 */
export function createMailer(options: { smtpUrl: string | undefined; from: string; log: FastifyBaseLogger }): Mailer {
  const { smtpUrl, from, log } = options;
  if (!smtpUrl) {
    return {
      async send(email) {
        log.info({ email: { to: email.to, subject: email.subject } }, `Email (SMTP_URL not set):\n${email.text}`);
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(email) {
      await transport.sendMail({ from, ...email });
    },
  };
}
