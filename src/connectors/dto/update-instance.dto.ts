import { InstanceSettingsDto } from './instance-settings.dto';

/** Every field optional; only the given ones change. */
export class UpdateInstanceDto extends InstanceSettingsDto {}
