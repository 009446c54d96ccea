/** What an order was for: the dataset's title, marked once its owner has deleted it. */
export function orderTitle(order: { asset_id: string | null; title: string }): string {
  return order.asset_id ? order.title : `${order.title} (deleted by its owner)`;
}
