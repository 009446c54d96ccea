import { ComponentType, LazyExoticComponent } from 'react';
import { lazyPage } from './lazy-page';

export interface AppRoute {
  path: string;
  /** Browser tab title; undefined gives the brand's own title. */
  title?: string;
  Page: LazyExoticComponent<ComponentType>;
  /** Login required: /account, /upload, /query, /connector-setup/:id (see docs/product.md, Roles). */
  guarded?: boolean;
}

const DetailPage = lazyPage(() => import('../pages/Detail/DetailPage'), 'DetailPage');

/** Every screen of the app, each in its own chunk. */
export const ROUTES: AppRoute[] = [
  { path: '/', Page: lazyPage(() => import('../pages/Landing/LandingPage'), 'LandingPage') },
  { path: '/about', title: 'About', Page: lazyPage(() => import('../pages/About/AboutPage'), 'AboutPage') },
  {
    path: '/account',
    title: 'Profile',
    guarded: true,
    Page: lazyPage(() => import('../pages/Account/AccountPage'), 'AccountPage'),
  },
  { path: '/blog', title: 'Blog', Page: lazyPage(() => import('../pages/Blog/BlogPage'), 'BlogPage') },
  {
    path: '/blog/new',
    title: 'New Blog Post',
    Page: lazyPage(() => import('../pages/BlogNew/BlogNewPage'), 'BlogNewPage'),
  },
  {
    path: '/blog/:slug',
    title: 'Blog',
    Page: lazyPage(() => import('../pages/BlogPost/BlogPostPage'), 'BlogPostPage'),
  },
  { path: '/connector_profile/:id', title: 'Connector', Page: DetailPage },
  { path: '/dataset_profile/:id', title: 'Dataset', Page: DetailPage },
  {
    path: '/contact',
    title: 'Contact',
    Page: lazyPage(() => import('../pages/Contact/ContactPage'), 'ContactPage'),
  },
  {
    path: '/dataapps',
    title: 'Data Apps',
    Page: lazyPage(() => import('../pages/DataApps/DataAppsPage'), 'DataAppsPage'),
  },
  {
    path: '/datastore',
    title: 'DataStore',
    Page: lazyPage(() => import('../pages/DataStore/DataStorePage'), 'DataStorePage'),
  },
  {
    path: '/documentation',
    title: 'Documentation',
    Page: lazyPage(() => import('../pages/Documentation/DocumentationPage'), 'DocumentationPage'),
  },
  {
    path: '/documentation/streaming',
    title: 'Streaming to BI tools',
    Page: lazyPage(() => import('../pages/StreamingGuide/StreamingGuidePage'), 'StreamingGuidePage'),
  },
  {
    path: '/imprint',
    title: 'Imprint',
    Page: lazyPage(() => import('../pages/Imprint/ImprintPage'), 'ImprintPage'),
  },
  {
    path: '/manage',
    title: 'Manage Data',
    Page: lazyPage(() => import('../pages/Manage/ManagePage'), 'ManagePage'),
  },
  {
    path: '/organisations',
    title: 'Organisations',
    guarded: true,
    Page: lazyPage(() => import('../pages/Organisations/OrganisationsPage'), 'OrganisationsPage'),
  },
  {
    path: '/organisations/:id',
    title: 'Organisation',
    guarded: true,
    Page: lazyPage(
      () => import('../pages/Organisations/OrganisationSettingsPage'),
      'OrganisationSettingsPage',
    ),
  },
  {
    path: '/invitations',
    title: 'Invitation',
    guarded: true,
    Page: lazyPage(() => import('../pages/Invitation/InvitationPage'), 'InvitationPage'),
  },
  {
    path: '/query',
    title: 'Query',
    guarded: true,
    Page: lazyPage(() => import('../pages/Query/QueryPage'), 'QueryPage'),
  },
  { path: '/terms', title: 'Terms', Page: lazyPage(() => import('../pages/Terms/TermsPage'), 'TermsPage') },
  {
    path: '/upload',
    title: 'Upload & Create',
    guarded: true,
    Page: lazyPage(() => import('../pages/Upload/UploadPage'), 'UploadPage'),
  },
  { path: '/login', title: 'Login', Page: lazyPage(() => import('../pages/Login/LoginPage'), 'LoginPage') },
  {
    path: '/forgot-password',
    title: 'Forgot Password',
    Page: lazyPage(() => import('../pages/ForgotPassword/ForgotPasswordPage'), 'ForgotPasswordPage'),
  },
  {
    path: '/reset-password',
    title: 'Reset Password',
    Page: lazyPage(() => import('../pages/ResetPassword/ResetPasswordPage'), 'ResetPasswordPage'),
  },
  {
    path: '/unlock-login',
    title: 'Unlock Sign-in',
    Page: lazyPage(() => import('../pages/UnlockLogin/UnlockLoginPage'), 'UnlockLoginPage'),
  },
  {
    path: '/register',
    title: 'Register',
    Page: lazyPage(() => import('../pages/Register/RegisterPage'), 'RegisterPage'),
  },
  {
    path: '/connector-setup/:id',
    title: 'Connector Setup',
    guarded: true,
    Page: lazyPage(() => import('../pages/ConnectorSetup/ConnectorSetupPage'), 'ConnectorSetupPage'),
  },
  {
    path: '/sso/verify-domain',
    title: 'Confirm Domain',
    Page: lazyPage(() => import('../pages/SsoDomain/VerifySsoDomainPage'), 'VerifySsoDomainPage'),
  },
  {
    path: '/verify-email/:token',
    title: 'Verify E-mail',
    Page: lazyPage(() => import('../pages/VerifyEmail/VerifyEmailPage'), 'VerifyEmailPage'),
  },
  {
    path: '/use-cases',
    title: 'Use Cases',
    Page: lazyPage(() => import('../pages/UseCases/UseCasesPage'), 'UseCasesPage'),
  },
  {
    path: '*',
    title: 'Page not found',
    Page: lazyPage(() => import('../pages/NotFound/NotFoundPage'), 'NotFoundPage'),
  },
];
