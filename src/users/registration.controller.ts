import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { MessageResponse } from '../common/message.response';
import { RegisterDto } from './dto/register.dto';
import { RegistrationService } from './registration.service';

@ApiTags('users')
@Controller('users')
export class RegistrationController {
  constructor(private readonly registration: RegistrationService) {}

  @Post('register')
  @ApiCreatedResponse({ type: MessageResponse })
  async register(@Body() input: RegisterDto): Promise<MessageResponse> {
    await this.registration.register(input);
    return { message: 'Registration successful. Please verify your email.' };
  }

  @Get('verify-email/:token')
  @ApiOkResponse({ type: MessageResponse })
  async verifyEmail(@Param('token') token: string): Promise<MessageResponse> {
    await this.registration.verifyEmail(token);
    return { message: 'Email verified' };
  }
}
