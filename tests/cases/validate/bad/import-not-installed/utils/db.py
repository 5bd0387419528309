def connect(host: str) -> object:
    import mysql.connector  # listed nowhere: every call of connect fails

    return mysql.connector.connect(host=host)
