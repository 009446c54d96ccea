import { Controller, Get } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { demoReadings, DemoReading } from './demo-feed';

/**
 * The source of the seeded live product: made-up readings, public and harmless, so a newcomer sees
 * a product refresh on their own machine with no internet. Not part of the documented API.
 */
@ApiExcludeController()
@Controller('demo')
export class DemoFeedController {
  @Get('live-feed')
  readings(): DemoReading[] {
    return demoReadings(new Date());
  }
}
