import express from 'express';
import request from 'supertest';
import { raiseReadPosition, READ_POSITION_COOKIE, readPositionOf } from './read-position';

/** An app that reports the position a request carries and raises it to `?to=`. */
function positionApp() {
  const app = express();
  app.get('/', (req, res) => {
    const carried = readPositionOf(req);
    raiseReadPosition(req, res, String(req.query.to), false);
    res.json({ carried: carried?.toString(16) ?? null });
  });
  app.get('/streamed', (req, res) => {
    res.write('begun');
    raiseReadPosition(req, res, String(req.query.to), false);
    res.end();
  });
  return app;
}

describe('the browser read position cookie', () => {
  const app = positionApp();

  it('carries the primary position as PostgreSQL prints it and reads it back', async () => {
    const first = await request(app).get('/?to=16/B374D848').expect(200);
    const cookie = first.headers['set-cookie'][0];
    expect(cookie).toMatch(new RegExp(`^${READ_POSITION_COOKIE.replace('.', '\\.')}=16/B374D848;`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const second = await request(app).get('/?to=0/1').set('Cookie', cookie.split(';')[0]).expect(200);
    expect(second.body.carried).toBe('16b374d848');
  });

  it('never lowers a position, and ignores one that is not a WAL position', async () => {
    const lower = await request(app).get('/?to=0/10').set('Cookie', `${READ_POSITION_COOKIE}=0/20`);
    expect(lower.headers['set-cookie']).toBeUndefined();
    const forged = await request(app).get('/?to=0/10').set('Cookie', `${READ_POSITION_COOKIE}=everything`);
    expect(forged.body.carried).toBeNull();
    expect(forged.headers['set-cookie'][0]).toMatch(/=0\/10;/);
  });

  it('leaves an answer that has begun alone', async () => {
    const streamed = await request(app).get('/streamed?to=0/10').expect(200);
    expect(streamed.headers['set-cookie']).toBeUndefined();
  });
});
