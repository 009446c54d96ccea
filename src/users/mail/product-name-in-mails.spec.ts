import { loadConfig } from '../../config/app-config';
import { accountExistsMail } from './account-exists-mail';
import { verificationMail } from './verification-mail';

describe('e-mails name the product as the app does', () => {
  const appOrigin = 'https://market.example';
  const mails = {
    verification: verificationMail({ to: 'a@example.test', name: 'Ada', appOrigin, token: 'token-1' }),
    'account exists': accountExistsMail({ to: 'a@example.test', appOrigin }),
  };

  it.each(Object.entries(mails))(
    'the %s mail is signed by the Data Marketplace team in text and HTML',
    (_kind, mail) => {
      expect(mail.text.split('\n').at(-1)).toBe('The Data Marketplace team');
      expect(mail.html?.endsWith('<p>The Data Marketplace team</p>')).toBe(true);
    },
  );

  it('sends from "Data Marketplace" unless MAIL_FROM says otherwise', () => {
    const secrets = { SESSION_SECRET: 'x'.repeat(40), ENCRYPTION_KEY: 'ab'.repeat(32) };
    expect(loadConfig({ NODE_ENV: 'test', ...secrets }).mailFrom).toBe(
      'Data Marketplace <no-reply@localhost>',
    );
  });
});
