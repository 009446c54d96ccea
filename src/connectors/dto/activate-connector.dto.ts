import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { InstanceSettingsDto } from './instance-settings.dto';

export class ActivateConnectorDto extends InstanceSettingsDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'connector_id must be a connector id' })
  connector_id: string;
}
