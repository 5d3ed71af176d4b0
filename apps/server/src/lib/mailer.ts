import { faultMessage } from "@parley/engine";
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

/** An email as the operator reads it in the console: a framed block, its lines as written. */
export function emailBlock(email: Email): string {
  const rule = "-".repeat(72);
  return [
    rule,
    "Email not sent (SMTP_URL is not set); it reads:",
    `To: ${email.to}`,
    `Subject: ${email.subject}`,
    "",
    email.text,
    rule,
    "",
  ].join("\n");
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise each email is printed to the console as
 * a readable block (the JSON log would escape its line breaks), so a local user can still follow a
 * magic link or an invitation. The log gets a line saying to whom, without the links.
 */
export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
  print?: (block: string) => void;
}): Mailer {
  const { smtpUrl, from, log } = options;
  if (!smtpUrl) {
    const print = options.print ?? ((block: string) => process.stdout.write(block));
    return {
      async send(email) {
        log.info(
          { email: { to: email.to, subject: email.subject } },
          "Email printed to the console (SMTP_URL not set)",
        );
        print(emailBlock(email));
      },
    };
  }
  const transport = nodemailer.createTransport(smtpUrl);
  // The server, never the URL: SMTP_URL holds the account's user name and password.
  const smtpHost = smtpHostOf(smtpUrl);
  return {
    async send(email) {
      try {
        await transport.sendMail({ from, ...email });
      } catch (error) {
        // The email is lost (nothing queues it): the person waiting for a link will not get it.
        log.error(
          { smtpHost, email: { to: email.to, subject: email.subject }, ...smtpFailure(error) },
          "email could not be sent",
        );
        throw error;
      }
    },
  };
}

function smtpHostOf(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    return url.port ? `${url.hostname}:${url.port}` : url.hostname;
  } catch {
    return "(unreadable SMTP_URL)";
  }
}

/** The SMTP server's answer (code and reply line) when it gave one, and the redacted message. */
function smtpFailure(error: unknown): { code?: string; status?: number; error: string } {
  const fields = error && typeof error === "object" ? (error as { code?: unknown; responseCode?: unknown }) : {};
  return {
    ...(typeof fields.code === "string" ? { code: fields.code } : {}),
    ...(typeof fields.responseCode === "number" ? { status: fields.responseCode } : {}),
    error: faultMessage(error),
  };
}
