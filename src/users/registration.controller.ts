import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RegisterDto } from './dto/register.dto';
import { RegistrationService } from './registration.service';

@ApiTags('users')
@Controller('users')
export class RegistrationController {
  constructor(private readonly registration: RegistrationService) {}

  @Post('register')
  async register(@Body() input: RegisterDto): Promise<{ message: string }> {
    await this.registration.register(input);
    return { message: 'Registration successful. Please verify your email.' };
  }

  @Get('verify-email/:token')
  async verifyEmail(@Param('token') token: string): Promise<{ message: string }> {
    await this.registration.verifyEmail(token);
    return { message: 'Email verified' };
  }
}
