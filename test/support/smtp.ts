import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  /** Body with quoted-printable soft breaks and escapes undone. */
  text: string;
}

/** A real SMTP server on loopback that keeps every message it receives. */
export async function startSmtpReceiver() {
  const mails: ReceivedMail[] = [];
  const waiters: Array<(m: ReceivedMail) => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail: ReceivedMail = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          text: raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))),
        };
        mails.push(mail);
        waiters.splice(0).forEach((w) => w(mail));
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next(): Promise<ReceivedMail> {
      return new Promise((resolve) => waiters.push(resolve));
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
