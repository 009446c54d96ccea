import { IsUUID } from 'class-validator';
import { InstanceSettingsDto } from './instance-settings.dto';

export class ActivateConnectorDto extends InstanceSettingsDto {
  @IsUUID('all', { message: 'connector_id must be a connector id' })
  connector_id: string;
}
