import { ApiProperty } from '@nestjs/swagger';

/** GET users/me, in the field names the client reads (pro_user as 0/1). */
export class MeResponse {
  @ApiProperty()
  id: string;

  @ApiProperty()
  email: string;

  @ApiProperty()
  name: string;

  @ApiProperty({ type: String, nullable: true })
  api_key: string | null;

  @ApiProperty({ enum: [0, 1], description: '1: may set refresh intervals' })
  pro_user: 0 | 1;

  @ApiProperty({ enum: [0, 1], description: '1: may publish blog posts' })
  blog_editor: 0 | 1;
}
