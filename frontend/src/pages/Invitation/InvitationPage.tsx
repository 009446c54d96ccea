import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useAnswerInvitation } from '../../api/organisations';
import { failureText } from '../../api/users';
import { useNotify } from '../../components/useNotify';

/** /invitations?token=…: the link of an invitation e-mail, answered by the logged-in addressee. */
export function InvitationPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const answer = useAnswerInvitation();
  const notify = useNotify();
  const navigate = useNavigate();

  const reply = (accept: boolean) =>
    answer.mutate(
      { token, accept },
      {
        onSuccess: (result) => {
          if ('id' in result) {
            notify(`You have joined ${result.name}.`, 'success');
            navigate(`/organisations/${result.id}`, { replace: true });
          } else {
            notify(result.message, 'success');
            navigate('/organisations', { replace: true });
          }
        },
      },
    );

  return (
    <Container maxWidth="sm" sx={{ py: 4 }}>
      <Typography variant="h4" component="h1" sx={{ mb: 2 }}>
        Invitation
      </Typography>
      {!token ? (
        <Alert severity="error">This invitation link is invalid.</Alert>
      ) : (
        <>
          <Typography sx={{ mb: 2 }}>You have been invited to join an organisation.</Typography>
          {answer.error && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {failureText(answer.error, {
                fallback: 'The invitation could not be answered',
                network: 'Network error',
              })}
            </Alert>
          )}
          <Stack direction="row" spacing={1}>
            <Button variant="contained" disabled={answer.isPending} onClick={() => reply(true)}>
              Accept
            </Button>
            <Button disabled={answer.isPending} onClick={() => reply(false)}>
              Decline
            </Button>
          </Stack>
        </>
      )}
    </Container>
  );
}
