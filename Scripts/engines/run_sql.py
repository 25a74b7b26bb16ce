#!/usr/bin/env python3
"""Runs a `contours sql` statement in an engine over a CSV file of points and
saves the result as CSV with a header, the way each engine's users export.

  run_sql.py duckdb   SQL INPUT.csv OUT.csv          (table: read_csv('INPUT.csv'))
  run_sql.py postgres SQL INPUT.csv OUT.csv SOCKETDIR (table: points, loaded by \\copy)
  run_sql.py spark    SQL INPUT.csv OUT.csv          (table: points, a temporary view)

Prints "ENGINE load S query S" on stderr: the seconds to load the table
(PostgreSQL, Spark) and to run the statement and write its result.
"""
import csv, os, shutil, subprocess, sys, tempfile, time

def column_types(path):
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        numeric = [True] * len(header)
        for k, row in enumerate(rows):
            if k >= 2000:
                break
            for i, v in enumerate(row):
                if v.strip() == "":
                    continue
                try:
                    float(v)
                except ValueError:
                    numeric[i] = False
    return header, numeric

def duckdb_run(sql, src, out):
    import duckdb
    t = time.time()
    con = duckdb.connect()
    con.execute("SET threads TO 2")
    con.execute(f"COPY ({sql}) TO '{out}' (HEADER, DELIMITER ',')")
    return 0.0, time.time() - t

def postgres_run(sql, src, out, socket):
    header, numeric = column_types(src)
    quote = lambda c: '"' + c.replace('"', '""') + '"'
    columns = ", ".join(f"{quote(c)} {'DOUBLE PRECISION' if n else 'TEXT'}" for c, n in zip(header, numeric))
    psql = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", socket, "-U", "postgres", "-d", "postgres"]
    t = time.time()
    script = f"DROP TABLE IF EXISTS points;\nCREATE UNLOGGED TABLE points ({columns});\n\\copy points FROM '{src}' WITH (FORMAT csv, HEADER true)\nANALYZE points;\n"
    subprocess.run(psql, input=script, text=True, check=True)
    load = time.time() - t
    t = time.time()
    with open(out, "w") as f:
        subprocess.run(psql + ["-c", "SET max_parallel_workers_per_gather = 2", "-c", "SET work_mem = '256MB'",
                               "-c", f"COPY ({sql}) TO STDOUT WITH (FORMAT csv, HEADER true)"],
                       stdout=f, check=True)
    return load, time.time() - t

def spark_run(sql, src, out):
    from pyspark.sql import SparkSession
    from pyspark.sql.types import StructType, StructField, DoubleType, StringType
    header, numeric = column_types(src)
    schema = StructType([StructField(c, DoubleType() if n else StringType()) for c, n in zip(header, numeric)])
    spark = (SparkSession.builder.master("local[2]").appName("contours-cells")
             .config("spark.driver.memory", "3g").config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", "8").config("spark.sql.codegen.wholeStage", os.environ.get("SPARK_CODEGEN", "true")).getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    t = time.time()
    # The statement reads the table several times (its aggregates feed each
    # other): cached, the CSV is parsed once.
    spark.read.csv(src, header=True, schema=schema, enforceSchema=True).createOrReplaceTempView("points")
    spark.sql("CACHE TABLE points")
    load = time.time() - t
    t = time.time()
    folder = tempfile.mkdtemp(prefix="cells-", dir=os.path.dirname(os.path.abspath(out)))
    spark.sql(sql).coalesce(1).write.mode("overwrite").csv(folder, header=True)
    part = [p for p in os.listdir(folder) if p.startswith("part-")][0]
    shutil.move(os.path.join(folder, part), out)
    shutil.rmtree(folder)
    query = time.time() - t
    spark.stop()
    return load, query

if __name__ == "__main__":
    engine, sql_path, src, out = sys.argv[1:5]
    sql = open(sql_path).read().strip().rstrip(";")
    if engine == "duckdb":
        load, query = duckdb_run(sql, src, out)
    elif engine == "postgres":
        load, query = postgres_run(sql, src, out, sys.argv[5])
    elif engine == "spark":
        load, query = spark_run(sql, src, out)
    else:
        sys.exit(f"unknown engine {engine}")
    print(f"{engine} load {load:.2f} s query {query:.2f} s", file=sys.stderr)
