/** GET users/me, in the field names the client reads (pro_user as 0/1). */
export interface MeResponse {
  id: string;
  email: string;
  name: string;
  api_key: string | null;
  pro_user: 0 | 1;
  blog_editor: 0 | 1;
}
