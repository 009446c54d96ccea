import { MigrationInterface, QueryRunner } from 'typeorm';
import { normaliseLicence } from '../../common/licences';

/**
 * Licences were free text: those that name a listed licence ("CC BY 4.0", its title or address)
 * become its SPDX id, so open-data metadata can link to it; any other wording stays as the owner
 * gave it (an "other" licence). Not reversible: the original spelling of a matched one is gone.
 */
export class LicencesAsSpdxIds1796048000000 implements MigrationInterface {
  name = 'LicencesAsSpdxIds1796048000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const rows: Array<{ licence: string }> = await queryRunner.query(
      `SELECT DISTINCT licence FROM assets WHERE licence <> ''`,
    );
    for (const { licence } of rows) {
      const id = normaliseLicence(licence);
      if (id !== licence)
        await queryRunner.query(`UPDATE assets SET licence = $1 WHERE licence = $2`, [id, licence]);
    }
  }

  public async down(): Promise<void> {
    // The SPDX ids are valid licence texts of the old shape too: nothing to undo.
  }
}
