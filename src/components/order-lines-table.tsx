/** One line of an order as its table shows it. */
export interface OrderLineRow {
  productName: string;
  productSku: string;
  quantity: number;
  unitPrice: number;
  totalPrice: number;
}

/**
 * The lines of an order: each product with its SKU below its name (and its picture, when
 * given), the quantity, the unit price and the line's total.
 */
export function OrderLinesTable<Line extends OrderLineRow>({
  lines,
  labels,
  money,
  skuLabel,
  thumbnail,
}: {
  lines: readonly Line[];
  labels: { product: string; quantity: string; unitPrice: string; lineTotal: string };
  money: (amount: number) => string;
  /** Said before the SKU, if anything. */
  skuLabel?: string;
  /** The picture shown beside a line's product, if any. */
  thumbnail?: (line: Line) => string | null | undefined;
}) {
  return (
    <table className="order-table">
      <thead>
        <tr>
          <th scope="col">{labels.product}</th>
          <th scope="col">{labels.quantity}</th>
          <th scope="col">{labels.unitPrice}</th>
          <th scope="col">{labels.lineTotal}</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, index) => {
          const image = thumbnail?.(line);
          return (
            // An order taken on the device may hold a product twice: the position tells them apart.
            <tr key={`${index}-${line.productSku}`}>
              <td>
                <span className="order-table__product">
                  {image && <img src={image} alt="" width="40" height="40" />}
                  <span>
                    {line.productName}
                    <br />
                    <small>{skuLabel ? `${skuLabel} ${line.productSku}` : line.productSku}</small>
                  </span>
                </span>
              </td>
              <td>{line.quantity}</td>
              <td>{money(line.unitPrice)}</td>
              <td>{money(line.totalPrice)}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
