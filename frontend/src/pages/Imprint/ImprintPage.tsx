import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Typography from '@mui/material/Typography';
import { ReactNode } from 'react';
import { useNoIndex } from './useNoIndex';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <Typography variant="h4" component="h2" id={id} sx={{ mt: 5, mb: 2 }}>
        {title}
      </Typography>
      {children}
    </section>
  );
}

export function ImprintPage() {
  useNoIndex();
  return (
    <Container maxWidth="md" sx={{ py: { xs: 5, md: 8 } }}>
      <Typography variant="h2" component="h1">
        Imprint
      </Typography>
      <Section id="imprint-operator" title="Operator">
        <Typography>
          Data Marketplace (placeholder company name)
          <br />
          Example Street 1, 10115 Berlin, Germany
          <br />
          E-mail: contact@example.com
        </Typography>
        <Typography sx={{ mt: 2 }}>
          Represented by the managing director. Register court and number, and the VAT identification number,
          are added here before the service goes live.
        </Typography>
      </Section>
      <Divider sx={{ mt: 5 }} />
      <Section id="privacy-policy" title="Privacy policy">
        <Typography sx={{ mb: 2 }}>
          We process personal data only as far as needed to run this service: your name and e-mail address for
          your account, a session cookie that keeps you signed in, and the datasets and connector settings you
          create.
        </Typography>
        <Typography sx={{ mb: 2 }}>
          Connector credentials and API keys are stored encrypted. We do not sell personal data and use no
          tracking or advertising cookies.
        </Typography>
        <Typography>
          You may ask at any time for information about, correction of, or deletion of your data by writing to
          the address above. You also have the right to complain to a data protection supervisory authority.
        </Typography>
      </Section>
      <Divider sx={{ mt: 5 }} />
      <Section id="legal-notice" title="Legal notice">
        <Typography sx={{ mb: 2 }}>
          The content of this site was prepared with care, but we cannot guarantee that it is complete,
          correct or current. Datasets and connectors are provided by their owners, who are responsible for
          them.
        </Typography>
        <Typography>
          Links to external websites are outside our control; their operators alone are responsible for their
          content.
        </Typography>
      </Section>
    </Container>
  );
}
