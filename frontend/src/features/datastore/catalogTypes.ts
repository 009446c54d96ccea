import type { FieldLike } from '../detail/detailRules';

/** Shapes of the catalogue answers (spec §7) as this screen reads them. */

export interface AssetSummary {
  id: string;
  title: string;
  description: string;
  category: string;
  keywords?: string[];
  price: string | number;
  is_public: boolean;
  visibility?: 'private' | 'public';
  image?: string | null;
  subscriber_count: number;
  source?: string;
  author?: string;
  row_count?: string | number;
  owned?: boolean;
  has_access?: boolean;
}

export interface ConnectorSummary {
  id: string;
  title: string;
  description: string;
  category?: string | null;
  price: string | number;
  is_public: boolean;
  visibility?: 'private' | 'public';
  image?: string | null;
  source?: string;
  author?: string;
  subscriber_count: number;
  owned?: boolean;
  has_instance?: boolean;
  instance_id?: string | null;
  auth_fields?: unknown;
  schema?: { fields?: FieldLike[] } | null;
}
