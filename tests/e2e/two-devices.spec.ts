/**
 * One salon user on a phone and a tablet (docs/product.md#one-user-on-two-devices): the
 * phone places an order offline while the tablet, online, changes the same cart. The order
 * reaches the server once, with the lines the phone's user confirmed and nothing the tablet
 * added; the tablet's line stays in the cart, and each device shows the server's truth.
 */
import { apiToken, approvedSalon, catalogueReady, fillShipping, signInAs } from './helpers';
import { expect, test } from './portal';

interface ApiProduct {
  id: number;
  name: string;
  stock: number;
}

interface ApiCart {
  items: { productId: number; quantity: number }[];
}

test('an order placed offline on one device orders what it showed, not what the other added', async ({
  page: phone,
  context: phoneContext,
  browser,
  request,
  portal,
}) => {
  const salon = await approvedSalon(request, 'two-devices');
  const token = await apiToken(request, salon.email);
  const headers = { authorization: `Bearer ${token}` };
  const { products } = (await (
    await request.get('/api/products', { headers, params: { limit: 50 } })
  ).json()) as { products: ApiProduct[] };
  const [shampoo, mask] = products.filter((product) => product.stock >= 5);
  if (!shampoo || !mask) throw new Error('Two products in stock are needed');

  // The phone, offline: two shampoos, and the order placed.
  await signInAs(phone, salon.email);
  await catalogueReady(phone);
  await phoneContext.setOffline(true);
  await phone.goto(`/products/${shampoo.id}?lng=en`);
  await phone.getByLabel('Quantity').fill('2');
  await phone.getByRole('button', { name: /^Add to cart/ }).click();
  await expect(phone.getByText('Product added to cart!')).toBeVisible();
  await phone.goto('/cart?lng=en');
  await expect(phone.getByTestId('cart-line')).toHaveCount(1);
  await phone.getByRole('button', { name: 'Proceed to checkout' }).click();
  await fillShipping(phone);
  await phone.getByRole('button', { name: 'Place order' }).click();
  await expect(phone.getByTestId('order-card').first()).toContainText('Waiting to sync');

  // The tablet, online meanwhile: a mask added to the same cart.
  const tabletContext = await browser.newContext({ baseURL: portal.url });
  try {
    const tablet = await tabletContext.newPage();
    await signInAs(tablet, salon.email);
    await tablet.goto(`/products/${mask.id}?lng=en`);
    // Priced once the tablet has read the product as this user may see it.
    await expect(tablet.locator('.product-detail__price')).toBeVisible();
    await tablet.getByRole('button', { name: /^Add to cart/ }).click();
    await expect(tablet.getByText('Product added to cart!')).toBeVisible({ timeout: 15_000 });
    await expect
      .poll(async () => {
        const cart = (await (await request.get('/api/cart', { headers })).json()) as ApiCart;
        return cart.items.map((item) => item.productId);
      })
      .toEqual([mask.id]);

    // The phone comes back: one order, of the two shampoos alone.
    await phoneContext.setOffline(false);
    await expect(phone.getByTestId('order-card').first()).toContainText(/Order FP-\d{4}-\d{6}/, {
      timeout: 20_000,
    });
    const { orders } = (await (await request.get('/api/orders', { headers })).json()) as {
      orders: { orderNumber: string; orderItems: { productId: number; quantity: number }[] }[];
    };
    expect(orders).toHaveLength(1);
    const [order] = orders;
    expect(order?.orderItems.map(({ productId, quantity }) => ({ productId, quantity }))).toEqual([
      { productId: shampoo.id, quantity: 2 },
    ]);
    // Nothing differs from what the phone's user saw when placing it.
    await expect(phone.getByText('The confirmed order differs')).toHaveCount(0);

    // The tablet's mask is still in the cart, and each device shows the server's truth.
    const cart = (await (await request.get('/api/cart', { headers })).json()) as ApiCart;
    expect(cart.items).toEqual([expect.objectContaining({ productId: mask.id, quantity: 1 })]);
    await phone.goto('/cart?lng=en');
    await expect(phone.getByTestId('cart-line')).toHaveCount(1);
    await expect(phone.getByTestId('cart-line')).toContainText(mask.name);
    await tablet.goto('/orders?lng=en');
    await expect(tablet.getByTestId('order-card').first()).toContainText(
      `Order ${order?.orderNumber}`,
    );
  } finally {
    await tabletContext.close();
  }
});
