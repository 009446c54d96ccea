import { useLocation, useParams } from 'react-router-dom';
import { INVALID_CONNECTOR_ID, isValidId } from '../../features/detail/detailRules';
import { ConnectorDetail } from './ConnectorDetail';
import { DatasetDetail } from './DatasetDetail';
import { DetailMessage } from './DetailMessage';

/** One screen for /dataset_profile/{id} and /connector_profile/{id} (see docs/product.md, Detail screen). */
export function DetailPage() {
  const { id } = useParams();
  const { pathname } = useLocation();
  const isConnector = pathname.startsWith('/connector_profile/');
  if (isConnector) {
    return isValidId(id) ? (
      <ConnectorDetail key={id} id={id} />
    ) : (
      <DetailMessage text={INVALID_CONNECTOR_ID} />
    );
  }
  // A malformed dataset id names nothing: the same answer as a missing dataset.
  return isValidId(id) ? <DatasetDetail key={id} id={id} /> : <DetailMessage text="Item not found" />;
}
