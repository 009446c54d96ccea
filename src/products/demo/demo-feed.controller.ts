import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { NonProductionGuard } from '../../users/mail/non-production.guard';
import { demoReadings, DemoReading } from './demo-feed';

/**
 * The source of the seeded live product: made-up readings, public and harmless, so a newcomer sees
 * a product refresh on their own machine with no internet. Not part of the documented API, and
 * absent in production (404), where made-up readings must never pass for data.
 */
@ApiExcludeController()
@UseGuards(NonProductionGuard)
@Controller('demo')
export class DemoFeedController {
  @Get('live-feed')
  readings(): DemoReading[] {
    return demoReadings(new Date());
  }
}
