import { createTheme } from '@mui/material/styles';

/** A calm, modern look: indigo primary, teal accent, soft surfaces and rounded corners. */
export const theme = createTheme({
  palette: {
    mode: 'light',
    primary: { main: '#3f51b5', dark: '#2c387e', light: '#6573c3' },
    secondary: { main: '#00897b' },
    background: { default: '#f6f7fb', paper: '#ffffff' },
    text: { primary: '#1c2033', secondary: '#5b6178' },
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    h1: {
      fontWeight: 800,
      fontSize: '2.4rem',
      lineHeight: 1.15,
      '@media (min-width:600px)': { fontSize: '3.2rem' },
    },
    h2: { fontWeight: 700, fontSize: '1.9rem', '@media (min-width:600px)': { fontSize: '2.4rem' } },
    h3: { fontWeight: 700, fontSize: '1.5rem', '@media (min-width:600px)': { fontSize: '1.8rem' } },
    h4: { fontWeight: 700, fontSize: '1.3rem', '@media (min-width:600px)': { fontSize: '1.5rem' } },
    h5: { fontWeight: 600 },
    h6: { fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiCard: {
      defaultProps: { variant: 'outlined' },
      styleOverrides: { root: { borderRadius: 14 } },
    },
    MuiAppBar: { defaultProps: { elevation: 0, color: 'inherit' } },
    MuiLink: { defaultProps: { underline: 'hover' } },
  },
});
