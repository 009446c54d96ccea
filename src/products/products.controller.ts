import { Body, Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../common/decorators/current-user.decorator';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { SessionGuard } from '../common/guards/session.guard';
import { PublishProductDto } from './dto/publish-product.dto';
import { ProductMessage, PublishedProduct } from './product-answers';
import { ProductsService } from './products.service';

/** Live products: a connection's table published as a dataset, and its held schema changes. */
@ApiTags('products')
@Controller()
@UseGuards(SessionGuard)
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Post('connectors/instance/:id/publish')
  @ApiCreatedResponse({ type: PublishedProduct })
  publish(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id') id: string,
    @Body() input: PublishProductDto,
  ): Promise<PublishedProduct> {
    return this.products.publish(user, id, input);
  }

  @Post('products/:assetId/schema-change/accept')
  @HttpCode(200)
  @ApiOkResponse({ type: ProductMessage })
  accept(@CurrentUser() user: AuthenticatedUser, @Param('assetId') assetId: string): Promise<ProductMessage> {
    return this.products.acceptSchemaChange(user, assetId);
  }

  @Post('products/:assetId/schema-change/dismiss')
  @HttpCode(200)
  @ApiOkResponse({ type: ProductMessage })
  dismiss(
    @CurrentUser() user: AuthenticatedUser,
    @Param('assetId') assetId: string,
  ): Promise<ProductMessage> {
    return this.products.dismissSchemaChange(user, assetId);
  }
}
