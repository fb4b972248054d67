package dev.restbench.contract;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The parts of statement counting that do not need a server: the csv format and what counts as a statement. */
class StatementLogTest {

    @Test
    void parsesQuotedFieldsWithCommasQuotesAndNewlines() {
        String text = "a,\"b,c\",\"say \"\"hi\"\"\"\n\"multi\nline\",,x\nincomplete,\"still";
        assertThat(CsvLog.parse(text)).containsExactly(
                List.of("a", "b,c", "say \"hi\""),
                List.of("multi\nline", "", "x"));
    }

    @Test
    void extractsTheSqlOfSimpleAndExtendedProtocolMessages() {
        assertThat(StatementLog.loggedSql("statement: SELECT 1")).isEqualTo("SELECT 1");
        assertThat(StatementLog.loggedSql("execute <unnamed>: select i.id from item i\nwhere i.id=$1"))
                .isEqualTo("select i.id from item i\nwhere i.id=$1");
        assertThat(StatementLog.loggedSql("execute S_3: insert into category (code) values ($1)"))
                .isEqualTo("insert into category (code) values ($1)");
        assertThat(StatementLog.loggedSql("connection authorized: user=postgres")).isNull();
    }

    @Test
    void countsOnlyDataStatements() {
        assertThat(StatementLog.isDataStatement("select * from item where id = $1")).isTrue();
        assertThat(StatementLog.isDataStatement("WITH i AS (INSERT INTO item VALUES (1) RETURNING *) SELECT 1"))
                .isTrue();
        assertThat(StatementLog.isDataStatement("(select 1) union (select 2)")).isTrue();
        assertThat(StatementLog.isDataStatement("update item set stock = 1")).isTrue();
        assertThat(StatementLog.isDataStatement("delete from item where id = $1")).isTrue();
        assertThat(StatementLog.isDataStatement("insert into item values ($1)")).isTrue();
        assertThat(StatementLog.isDataStatement("BEGIN")).isFalse();
        assertThat(StatementLog.isDataStatement("COMMIT")).isFalse();
        assertThat(StatementLog.isDataStatement("SET application_name = 'x'")).isFalse();
        assertThat(StatementLog.isDataStatement("SHOW TRANSACTION ISOLATION LEVEL")).isFalse();
        assertThat(StatementLog.isDataStatement("")).isFalse();
        assertThat(StatementLog.isDataStatement("SELECT 1")).isFalse();
    }

    @Test
    void recognisesTransactionControl() {
        assertThat(StatementLog.isTransactionControl("BEGIN")).isTrue();
        assertThat(StatementLog.isTransactionControl("BEGIN READ ONLY")).isTrue();
        assertThat(StatementLog.isTransactionControl("COMMIT")).isTrue();
        assertThat(StatementLog.isTransactionControl("ROLLBACK")).isTrue();
        assertThat(StatementLog.isTransactionControl("select 1")).isFalse();
        assertThat(StatementLog.isTransactionControl("SET application_name = 'x'")).isFalse();
        StatementLog.Window window = new StatementLog.Window(List.of("select 1"),
                List.of("BEGIN READ ONLY", "COMMIT", "BEGIN", "ROLLBACK"));
        assertThat(window.count("BEGIN")).isEqualTo(2);
        assertThat(window.count("ROLLBACK")).isEqualTo(1);
        assertThat(window.transactionRoundTrips()).isEqualTo(2);
    }
}
