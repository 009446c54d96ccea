import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { DataSource } from 'typeorm';
import type { LoggerService } from '@nestjs/common';
import request from 'supertest';
import { createApp } from '../../src/bootstrap';
import { createTestApp, TEST_ORIGIN, testConfig, testDatabaseUrl, TestApp } from '../support/test-app';
import { SmtpSink } from './support/smtp-sink';

const body = (email: string) => ({ name: 'Mail User', email, password: 'long-enough-password' });

describe('verification mail delivery', () => {
  describe('with SMTP_URL set', () => {
    const sink = new SmtpSink();
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await createTestApp({
        SMTP_URL: await sink.start(),
        MAIL_FROM: 'Market <no-reply@market.test>',
      });
    });
    afterAll(async () => {
      await testApp.close();
      await sink.stop();
    });

    it('sends the verification link over SMTP and keeps nothing in the outbox', async () => {
      const email = `smtp-${randomUUID()}@example.test`;
      await testApp.http.post('/api/users/register').set('Origin', TEST_ORIGIN).send(body(email)).expect(201);
      const message = sink.messages.find((candidate) => candidate.to.includes(email));
      expect(message).toBeDefined();
      expect(message!.from).toContain('no-reply@market.test');
      expect(message!.data).toContain(`${TEST_ORIGIN}/verify-email/`);
      const outbox = await testApp.http.get('/api/dev/outbox').query({ email }).expect(200);
      expect(outbox.body).toEqual([]);
    });
  });

  describe('with an SMTP server that cannot be reached', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      // A port that was free a moment ago: connections are refused.
      const port = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const { port: free } = probe.address() as { port: number };
          probe.close(() => resolve(free));
        });
      });
      testApp = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    });
    afterAll(() => testApp.close());

    it('answers 503 and keeps no account nobody could verify', async () => {
      const email = `unsent-${randomUUID()}@example.test`;
      const response = await testApp.http
        .post('/api/users/register')
        .set('Origin', TEST_ORIGIN)
        .send(body(email))
        .expect(503);
      expect(response.body.message).toBe('We could not send the verification email. Please try again later.');
      const rows = await testApp.dataSource.query('SELECT 1 FROM users WHERE email = $1', [email]);
      expect(rows).toHaveLength(0);
    });
  });

  describe('in production', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await createTestApp({ NODE_ENV: 'production' });
    });
    afterAll(() => testApp.close());

    it('hides the dev outbox behind a 404', async () => {
      const response = await testApp.http
        .get('/api/dev/outbox')
        .query({ email: 'anyone@example.test' })
        .expect(404);
      expect(response.body.statusCode).toBe(404);
    });
  });

  describe('in production without SMTP_URL', () => {
    it('refuses registration with a clear message, says so in the log at start, and creates no account', async () => {
      const lines: string[] = [];
      const capture = (message: unknown, ...rest: unknown[]) =>
        lines.push([message, ...rest].map(String).join(' '));
      const logger: LoggerService = {
        log: capture,
        warn: capture,
        error: capture,
        debug: capture,
        verbose: capture,
      };
      const app = await createApp(
        testConfig({ NODE_ENV: 'production', LOG_LEVEL: 'verbose' }),
        testDatabaseUrl(),
        {
          logger,
        },
      );
      try {
        expect(
          lines.some((line) => line.includes('No SMTP_URL set in production: registration is refused')),
        ).toBe(true);
        const email = `prod-${randomUUID()}@example.test`;
        const answer = await request(app.getHttpServer())
          .post('/api/users/register')
          .set('Origin', TEST_ORIGIN)
          .send(body(email))
          .expect(503);
        expect(answer.body.message).toBe(
          'Registration is not possible yet: this site cannot send e-mail. Please try again later.',
        );
        const rows = await app.get(DataSource).query('SELECT 1 FROM users WHERE email = $1', [email]);
        expect(rows).toHaveLength(0);
      } finally {
        await app.close();
      }
    });
  });

  describe('in development without SMTP_URL', () => {
    let testApp: TestApp;

    beforeAll(async () => {
      testApp = await createTestApp({ NODE_ENV: 'development' });
    });
    afterAll(() => testApp.close());

    it('keeps the mail in the outbox, readable at GET /api/dev/outbox?email=', async () => {
      const email = `dev-${randomUUID()}@example.test`;
      await testApp.http.post('/api/users/register').set('Origin', TEST_ORIGIN).send(body(email)).expect(201);
      const outbox = await testApp.http.get('/api/dev/outbox').query({ email }).expect(200);
      expect(outbox.body).toHaveLength(1);
      expect(outbox.body[0]).toMatchObject({ recipient: email, subject: 'Verify your email address' });
    });

    it('asks for the recipient', async () => {
      await testApp.http.get('/api/dev/outbox').expect(400);
    });
  });
});
