import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsFQDN, IsNotEmpty, IsString, MaxLength } from 'class-validator';

const lowerTrimmed = ({ value }: { value: unknown }) =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

export class AddDomainDto {
  @ApiProperty({ example: 'acme.com', maxLength: 253 })
  @Transform(lowerTrimmed)
  @IsString({ message: 'Please enter a domain such as example.com' })
  @MaxLength(253, { message: 'Please enter a domain such as example.com' })
  @IsFQDN(
    { require_tld: true, allow_underscores: false },
    { message: 'Please enter a domain such as example.com' },
  )
  domain: string;

  /** Where the verification link goes: an administrative address at the domain (admin@, postmaster@, …). */
  @ApiProperty({ example: 'postmaster@acme.com' })
  @Transform(lowerTrimmed)
  @IsNotEmpty({ message: 'Email is required' })
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(254, { message: 'Please enter a valid email address' })
  email: string;
}
