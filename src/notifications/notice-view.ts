import { ApiProperty } from '@nestjs/swagger';
import { NOTICE_KINDS, NoticeKind } from './entities/notification.entity';

/** A notice as its user sees it on the account page. */
export class NoticeView {
  @ApiProperty()
  id: string;

  @ApiProperty({ enum: NOTICE_KINDS })
  kind: NoticeKind;

  @ApiProperty()
  subject: string;

  @ApiProperty({ description: 'The same text as the e-mail' })
  text: string;

  @ApiProperty({ format: 'date-time' })
  created_at: string;
}
